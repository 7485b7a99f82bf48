console.log('start');
const m = await import('./dist/server/alerts/worker.test.js');
console.log('imported');
