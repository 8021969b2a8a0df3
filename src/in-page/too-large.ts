/** Thrown in the page when a read grows past its maxChars: the reply says too-large instead. */
export const TOO_LARGE = new RangeError('too large');
