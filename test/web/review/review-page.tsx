// The page of the Chromium test: <ChangeSetReview> over the change set the test put in window.__SET__.
import { createRoot } from 'react-dom/client';
import { ChangeSetReview, changeSetReviewCss, sandboxApprovalCss } from '../../../src/react/index.js';
import type { ChangeSet } from '../../../src/staging/change-set.js';
import type { ReviewDecisions } from '../../../src/staging/decisions.js';

const w = window as unknown as { __SET__: ChangeSet; __DECISIONS__?: ReviewDecisions };
const style = document.createElement('style');
style.textContent = sandboxApprovalCss + changeSetReviewCss;
document.head.append(style);
createRoot(document.getElementById('root')!).render(
  <ChangeSetReview
    changeSet={w.__SET__}
    onSubmit={(d) => {
      w.__DECISIONS__ = d;
    }}
  />,
);
