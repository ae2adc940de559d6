// Human with MediaPipe's attention face mesh (loadHuman's `attention`; workerData `{ attention: false }`: the
// plain mesh, as the face worker runs it) in a thread of its own, for scripts/evaluate-attention-mesh.ts. Its own thread because Human keeps the loaded face mesh model in
// module state that every Human instance of a thread shares: a second instance with attention in the
// same thread would make the first run the attention model as its plain mesh (or the reverse).
import { parentPort, workerData } from "node:worker_threads";
import { loadHuman } from "@/lib/engines/ml/faces/human-model";

type Request = { id: number; rgb: Uint8Array; width: number; height: number };

const human = loadHuman({ minConfidence: 0.2, maxFaces: 30, attention: (workerData as { attention?: boolean } | null)?.attention !== false });

parentPort!.on("message", (req: Request) => {
  void (async () => {
    try {
      const h = await human;
      const t = h.tf.tensor3d(req.rgb, [req.height, req.width, 3], "int32");
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      let res;
      try {
        res = await h.detect(t);
      } finally {
        t.dispose();
      }
      // process.cpuUsage in a worker is the whole process's: the bench's other thread idles while it waits.
      const c = process.cpuUsage(c0);
      parentPort!.postMessage({ id: req.id, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, rssMb: process.memoryUsage().rss / 1e6, faces: res.face.map((f) => ({ mesh: f.mesh, score: f.score })) });
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: String(e) });
    }
  })();
});
