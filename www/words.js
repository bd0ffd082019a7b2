// Counts in words, as the core writes them: "1 packet", "12 packets".

/** `n` and `noun`, the noun plural unless `n` is one. */
export const count = (n, noun) => `${n} ${n === 1 ? noun : `${noun}s`}`;
