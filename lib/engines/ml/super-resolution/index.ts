export { superResolve2x, shutDownSuperResolution, spawnSrWorker } from "./super-resolve";
export { srMaxInputPixels } from "./sr-config";
