// 4.2–4.7 and search. (Placeholder: the emulator issue fills it.)
import type { Route } from '../server.js';

export const catalogRoutes: Route[] = [];
