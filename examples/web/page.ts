/** The demo page: a root for React and the bundled script (served from the same origin). */
export const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sandbox-approval — web approvals</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f6f8fa; color: #1f2328; }
main { max-width: 900px; margin: 0 auto; padding: 16px; }
.msg { margin: 10px 0; padding: 10px 12px; border-radius: 8px; background: #fff; border: 1px solid #d1d9e0; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.user { background: #ddf4ff; }
form { display: flex; gap: 8px; margin-top: 12px; }
form input { flex: 1; font: inherit; padding: 6px 10px; border-radius: 6px; border: 1px solid #c9d1d9; }
form button { font: inherit; padding: 6px 14px; }
.hint { color: #59636e; font-size: 13px; }
</style>
</head>
<body>
<main id="root"></main>
<script type="module" src="/app.js"></script>
</body>
</html>
`;
