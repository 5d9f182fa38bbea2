export const IMAGE_FORMATS = ['svg'] as const;

/** The image endpoint's query once parsed (ImageQueryPipe). */
export interface ImageQuery {
  /** width and height in pixels */
  size: number;
}
