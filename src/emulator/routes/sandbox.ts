// 4.11 sandbox. (Placeholder: the emulator issue fills it.)
import type { Route } from '../server.js';

export const sandboxRoutes: Route[] = [];
