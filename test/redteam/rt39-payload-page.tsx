// The page of the rt39 Chromium tests: <PayloadView> (or <ChangeSetReview>) over the data the test put
// in window.__PAYLOAD__ / window.__SET__; window.__RENDERED__ is set to the ms from script start to the
// first commit (React's effect after the first render).
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import {
  ChangeSetReview,
  changeSetReviewCss,
  PayloadView,
  sandboxApprovalCss,
} from '../../src/react/index.js';
import type { ChangeSet } from '../../src/staging/change-set.js';

const w = window as unknown as {
  __PAYLOAD__?: ApprovalPayload;
  __SET__?: ChangeSet;
  __RENDERED__?: number;
};
const t0 = performance.now();
const style = document.createElement('style');
style.textContent = sandboxApprovalCss + changeSetReviewCss;
document.head.append(style);

function Done(): null {
  useEffect(() => {
    w.__RENDERED__ = performance.now() - t0;
  }, []);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <>
    {w.__PAYLOAD__ ? <PayloadView payload={w.__PAYLOAD__} /> : null}
    {w.__SET__ ? <ChangeSetReview changeSet={w.__SET__} onSubmit={() => {}} /> : null}
    <Done />
  </>,
);
