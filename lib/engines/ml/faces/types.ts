/** A point in the upright source image's pixel coordinates (x right, y down). */
export type Point = { x: number; y: number };
export type Box = { x: number; y: number; w: number; h: number };

export type FaceLandmarks = {
  /**
   * Eye centres as seen in the image: `left` is the eye on the image's left. A preset's eye line
   * (lib/services/face-crop/presets.ts) runs through these, and they are meant as the **pupils**:
   * ISO/IEC 19794-5 and ICAO 9303, where the presets' rules come from, place the eye line through the
   * centres of the eyes of a subject looking into the camera, that is the pupils, not the middle of
   * the eyelids' outline. For Face Crop's face they are the jaw net's eye centres blended with the
   * mesh's (jaw-model.ts `blendEyes`), left at the height the net puts them: the public 68-point sets
   * (300-W) mark each eye as the mean of its six contour points, which lies about 0.02 eye distances
   * lower. Measured on 433 HELEN training faces with MediaPipe's iris model as the pupil
   * (scripts/evaluate-eye-definition.ts): the marked contour mean 0.023 below the pupil, these eyes
   * 0.005 (0.018 above the contour mean, none along the eye line); on the committed subset's
   * hand-marked pupils these eyes sit at the marked pupils' height. Evaluations on 68-point markup
   * count that gap as eye error (bench/README.md, "Face Crop landmarks").
   */
  leftEye: Point;
  rightEye: Point;
  eyeMid: Point;
  /** Bottom of the chin: mesh point 152, or for Face Crop's face the jaw-aware net's point 9 (see `DetectedFace.landmarkModel`). */
  chin: Point;
  /** Top of the head, estimated: the eye line sits about halfway between chin and crown (see landmarks.ts). */
  crown: Point;
};

export type DetectedFace = {
  /** Tight box of the face (brow to chin, cheek to cheek) from the mesh, clamped to the image. */
  box: Box;
  score: number;
  /** Roll of the eye line in degrees, positive when the image's right eye is lower (clockwise tilt). */
  roll: number;
  landmarks: FaceLandmarks;
  /** Chin-to-crown distance in pixels, along the face's vertical axis. */
  headHeight: number;
  /** The face box reaches the image's edge (a face cut by the frame). */
  touchesEdge: boolean;
  /**
   * How far the face is turned left or right, in degrees (0 facing the camera), estimated
   * from the mesh: the nose tip's distance to either cheek's edge (points 234 and 454).
   */
  yaw: number;
  /** Share of the mesh's 468 points that fall outside the photo (0 for a whole face). */
  outsideShare: number;
  /**
   * The eyes' centres as iBUG's 68-point scheme defines them (the mean of each eye's six contour
   * points) on the mesh, image-left first; `landmarks` keeps the corners' mid-points. Face Crop
   * averages them with the jaw net's (detect-in-thread.ts).
   */
  contourEyes?: [Point, Point];
  /**
   * Only when asked for (Face Crop, `detectFaces(bytes, { crown: true })`, first face):
   * where `landmarks.crown` came from, "matte" (the top of the person outline above the
   * face, see person-crown.ts) or "landmarks" (the estimate), and whether that outline
   * runs into the photo's edge (the head is cut there).
   */
  crownSource?: "matte" | "landmarks";
  /**
   * Face Crop's face only: which model placed the eyes and `landmarks.chin`, "face-api-landmark68"
   * (the jaw-aware 68-point net, jaw-model.ts) or "mesh" (the net's points were implausible).
   */
  landmarkModel?: "face-api-landmark68" | "mesh";
  crownTouchesEdge?: boolean;
};

export type FaceDetection = {
  /** Upright (EXIF orientation applied) size of the source. */
  width: number;
  height: number;
  /** Faces kept after filtering, most prominent first. */
  faces: DetectedFace[];
  /** Faces the model reported before size/score filtering. */
  rawCount: number;
  /** When asked for (Face Crop): `jaw` the jaw net's eyes and chin, `crown` the person matte's step. */
  timingsMs: { decode: number; detect: number; jaw?: number; crown?: number };
};

/** A detected face with its identity embedding (see lib/engines/ml/faces/README.md, "Matching"). */
export type DescribedFace = DetectedFace & {
  /** 128 numbers, unit length (L2-normalised); compare with faceSimilarity. */
  embedding: Float32Array;
  /**
   * Detail in the aligned 150 px chip: the variance of its Laplacian between brows and
   * chin (see chipSharpness). Sharp portraits measure 90-1,200; blurred ones under 30.
   */
  sharpness: number;
};

export type FaceDescriptions = Omit<FaceDetection, "faces" | "timingsMs"> & {
  faces: DescribedFace[];
  timingsMs: { decode: number; detect: number; embed: number };
};
