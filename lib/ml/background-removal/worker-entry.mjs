// Entry of a background-removal worker thread. The engine pool starts this plain
// module by absolute path, outside the Next.js bundle (a bundled `new Worker(...)`
// would point into .next/ where no worker file exists); it loads the TypeScript
// worker through tsx, which is a runtime dependency for that reason.
import { tsImport } from "tsx/esm/api";

await tsImport("./worker.ts", import.meta.url);
