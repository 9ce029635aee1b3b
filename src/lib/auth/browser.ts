// Opening a URL in the user's browser: the command in BROWSER when set (the URL as its one
// argument, as git and gh do), else the platform's opener through the `open` package.
import { spawn } from 'node:child_process';
import { ForbiddenError } from '../errors.js';
import { safeText } from '../output/text.js';

/**
 * The one rule for a URL pds opens or prints as "open this": a web URL and nothing else. A server
 * naming `file:`, `javascript:`, `smb:` or an app's own scheme would otherwise have the desktop
 * open a local file or start a program (CVE-2025-6514); a leading `-` or a control character
 * could be read as an option or split the line. Plain http is already refused elsewhere unless it
 * goes to a loopback host or the user opted in.
 */
export function openableUrl(raw: string, source: string): URL {
  const refuse = (why: string): never => {
    throw new ForbiddenError(`refusing to open ${JSON.stringify(safeText(raw.slice(0, 200)))}: ${why}`, {
      details: [`${source} names it; only https:// URLs (or http:// to this machine) are opened`],
    });
  };
  if (/[\x00-\x20\x7f]/.test(raw)) refuse('it contains a space or a control character');
  if (raw.startsWith('-')) refuse('it starts with "-"');
  if (!URL.canParse(raw)) refuse('it is not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    refuse(`its scheme is ${url.protocol.slice(0, -1)}, not https`);
  if (url.username !== '' || url.password !== '') refuse('it carries a user name or password');
  return url;
}

/** Resolves true when a browser was started; false when none could be (the caller prints the URL). */
export async function openBrowser(url: URL, env: NodeJS.ProcessEnv): Promise<boolean> {
  // Checked again at the door: whatever reaches here goes to another program, as one argument.
  const href = openableUrl(url.href, 'pds').href;
  const command = env.BROWSER?.trim();
  if (command) {
    return new Promise((resolve) => {
      const child = spawn(command, [href], { stdio: 'ignore', detached: true, env, shell: false });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        // The browser may run for hours: pds neither waits for it nor keeps it as a child.
        child.unref();
        resolve(true);
      });
    });
  }
  try {
    const { default: open } = await import('open');
    const child = await open(href, { wait: false });
    child.once('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
