import { formatItem } from './format.js';

export interface TodoItem {
  id: number;
  title: string;
  done: boolean;
}

export class TodoList {
  private items: TodoItem[] = [];
  private nextId = 1;

  add(title: string): TodoItem {
    const item = { id: this.nextId++, title, done: false };
    this.items.push(item);
    return item;
  }

  complete(id: number): void {
    const item = this.items.find((i) => i.id === id);
    if (item) item.done = true;
  }

  pending(): TodoItem[] {
    return this.items.filter((i) => !i.done);
  }

  summary(): string {
    const done = this.items.length - this.pending().length;
    const lines = this.items.map(formatItem);
    return [`${done}/${this.items.length} done`, ...lines].join('\n');
  }
}
