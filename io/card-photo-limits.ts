/** What one photo may ask of the reader (apart from the reader, so the server knows it without loading sharp and the OCR). */
export interface PhotoLimits {
  /** Bytes of the file (a phone's photo is 2 to 6 MB). */
  maxBytes: number;
  /** Pixels of the picture as stored (checked from its header, before anything is decoded). */
  maxInputPixels: number;
  /** The longest side the picture is worked on at, after it is scaled for the OCR. */
  maxSide: number;
  /** Pixels worked on, at most, after scaling. */
  maxWorkPixels: number;
}

export const PHOTO_LIMITS: PhotoLimits = { maxBytes: 10 * 1024 * 1024, maxInputPixels: 40_000_000, maxSide: 4000, maxWorkPixels: 8_000_000 };

/** At most this many photos make one card (a card has two sides of two columns at most). */
export const MAX_PHOTOS = 6;
