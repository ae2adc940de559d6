export { detectFaces, warmUpFaces, shutDownFaces, spawnFaceWorker, FaceEngineError, isFaceEngineError } from "./detect-faces";
export { FaceInputError, isFaceInputError } from "./face-input-error";
export { probeImage } from "./decode-upright";
export { faceEngineConfig } from "./engine-config";
export type { Box, Point, DetectedFace, FaceDetection, FaceLandmarks } from "./types";
