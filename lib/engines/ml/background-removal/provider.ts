/** Names the engine in results and job records; a hosted provider would get its own name. */
export const PROVIDER = "isnet-onnx";
