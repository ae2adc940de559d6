export { detectFaces, describeFaces, warmUpFaces, shutDownFaces, spawnFaceWorker, FaceEngineError, isFaceEngineError } from "./detect-faces";
export { FaceInputError, isFaceInputError } from "./face-input-error";
export { probeImage } from "./decode-upright";
export { faceEngineConfig } from "./engine-config";
export type { Box, Point, DetectedFace, FaceDetection, FaceLandmarks, DescribedFace, FaceDescriptions } from "./types";
export {
  EMBEDDING_MODEL,
  DEFAULT_MATCH_THRESHOLD,
  REVIEW_BAND,
  AMBIGUITY_MARGIN,
  DISTANCE_TO_SIMILARITY,
  COSINE_TO_SIMILARITY,
  faceSimilarity,
  faceDistance,
  similarityOfDistance,
  rankCandidates,
  type Candidate,
} from "./matching";
export { decideMatch, judgeMatch, rosterThreshold, photoFalseMatchRate, PHOTO_FALSE_MATCH_RATE, type MatchDecision, type ReviewReason } from "./decide-match";
