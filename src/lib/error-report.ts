// How an error is drawn on stderr, in one place: `error: <message>`, its detail lines and the
// service's request id; or, when the output is JSON, one JSON object. cli.ts reports a command's
// failure with it; the sandbox shell and a batch of files report the failures they survive.
import { safeText } from './output/text.js';

export interface ErrorReport {
  message: string;
  details: readonly string[];
  /** HTTP status when the service answered. */
  status?: number;
  requestId?: string;
}

/** The lines for an error; `label` styles the `error:` word (red on a terminal). */
export function errorText(error: ErrorReport, json: boolean, label: (text: string) => string = (text) => text): string {
  if (json) {
    const body: Record<string, unknown> = { status: error.status ?? null, message: error.message };
    if (error.details.length > 0) body.details = error.details;
    if (error.requestId) body.request_id = error.requestId;
    return `${JSON.stringify({ error: body })}\n`;
  }
  // Messages carry the service's words: a line feed in them must not forge a line of ours.
  let text = `${label('error:')} ${safeText(error.message)}\n`;
  for (const line of error.details) text += `  ${safeText(line)}\n`;
  if (error.requestId) text += `  request id: ${safeText(error.requestId)}\n`;
  return text;
}
