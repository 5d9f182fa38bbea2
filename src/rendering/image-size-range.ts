/** Width and height an image may be requested at (`size`), pixels: the API's range. */
export const MIN_SIZE = 100;
export const MAX_SIZE = 2000;
