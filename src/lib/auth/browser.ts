// Opening a URL in the user's browser: the command in BROWSER when set (the URL as its one
// argument, as git and gh do), else the platform's opener through the `open` package.
import { spawn } from 'node:child_process';

/** Resolves true when a browser was started; false when none could be (the caller prints the URL). */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const command = env.BROWSER?.trim();
  if (command) {
    return new Promise((resolve) => {
      const child = spawn(command, [url], { stdio: 'ignore', detached: true, env });
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
    const child = await open(url, { wait: false });
    child.once('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
