// Preloaded by the bench (`node --require`): records this process's peak RSS (KiB) at exit.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  if (process.env.PDS_RSS_FILE) writeFileSync(process.env.PDS_RSS_FILE, String(process.resourceUsage().maxRSS));
});
