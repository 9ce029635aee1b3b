// 4.8–4.10 uploads and processing. (Placeholder: the emulator issue fills it.)
import type { RouteContext } from '../http.js';
import type { Route } from '../server.js';

/** Moves every upload along its state machine to the current time; called before each request. */
export function advanceUploads(_ctx: RouteContext): void {}

export const documentRoutes: Route[] = [];
