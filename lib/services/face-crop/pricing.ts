/** Contract 2.1: Face Crop costs 2 tokens per image, 6 with enhance; debited at acceptance, failed files refunded. */
export const FACE_CROP_COST = 2;
export const FACE_CROP_ENHANCE_COST = 6;
export const FACE_CROP_OPERATION = "face_crop";

export const facesCropPrice = (enhance: boolean) => (enhance ? FACE_CROP_ENHANCE_COST : FACE_CROP_COST);
