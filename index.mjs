// ESM entry point: the CommonJS API (server/index.js) re-exported.
import api from './server/index.js';

export const { startServer, handler, fastifyPlugin, Logger } = api;
export default api;
