import type { TodoItem } from './todo-list.js';

/** One line per item: "[x] 1. write docs". */
export function formatItem(item: TodoItem): string {
  const box = item.done ? '[x]' : '[ ]';
  return `${box} ${item.id}. ${item.title}`;
}
