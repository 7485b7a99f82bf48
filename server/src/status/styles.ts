// The status page's stylesheet, inlined in the page (its Content-Security-Policy allows this text by its hash): the
// dashboard's colours and fonts (web/styles.css), light and dark, readable from 375 px, no script.
export const STATUS_STYLES = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#d8dde3;--panel:#f5f7f9;--link:#0b5cad;--ok:#1a7f37;
--bad:#c62828;--warn:#9a6700;--run:#0969da;--none:#c9ced4;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6e9ed;--muted:#9aa4b0;--line:#2c333b;--panel:#171b21;
--link:#6cb6ff;--ok:#4ac26b;--bad:#ff7b72;--warn:#d29922;--run:#58a6ff;--none:#3a424c}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;
overflow-wrap:anywhere}
main{max-width:860px;margin:0 auto;padding:16px}
h1{font-size:22px;margin:8px 0 4px}
h2{font-size:16px;margin:0}
a{color:var(--link)}
.muted{color:var(--muted)}
.summary{font-size:17px;font-weight:600;margin:8px 0}
.ok{color:var(--ok)}.bad{color:var(--bad)}.pending{color:var(--warn)}.running{color:var(--run)}
.monitors{list-style:none;margin:16px 0;padding:0}
.monitor{border:1px solid var(--line);border-radius:8px;background:var(--panel);padding:12px;margin:0 0 12px}
.head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 12px;align-items:baseline}
.state{font-weight:600}
.monitor p{margin:4px 0}
.error{color:var(--bad);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;
white-space:pre-wrap}
.bars{display:grid;grid-template-columns:repeat(90,1fr);gap:1px;list-style:none;margin:8px 0 2px;padding:0;height:28px}
.bars li{border-radius:1px;min-width:0}
.day-ok{background:var(--ok)}.day-failed{background:var(--bad)}.day-none{background:var(--none)}
.axis{display:flex;justify-content:space-between;font-size:12px}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;padding:0;font-size:13px}
.key{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{margin-top:24px;font-size:13px}
`;
