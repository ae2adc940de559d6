// glibc's malloc settings for the server (Linux), set by `npm start` (scripts/start.mjs), the
// Dockerfile and the standalone smoke and memory bench (scripts/support/standalone-server.ts).
//
// Why: the engines run in worker threads (onnxruntime, TensorFlow.js, libvips) and allocate
// large buffers. By default glibc gives each thread its own 64 MB arenas and raises its mmap
// threshold after large frees, so those buffers land in heaps it keeps after the threads end.
// A fixed 128 KiB mmap threshold gives large buffers back on free, and two arenas stop the
// per-thread heaps. Measured on the whole server (bench/server-memory-bench.ts, every service
// at once, 2026-11-26): peak 1,320 MB and 571 MB after idle, against 1,579 and 812 MB with
// glibc's defaults in the same session. A value already in GLIBC_TUNABLES is left alone.
export const MALLOC_TUNABLES = "glibc.malloc.mmap_threshold=131072:glibc.malloc.arena_max=2";
