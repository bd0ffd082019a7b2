// A loaded instance in the address: its SPEC §3 JSON (as the core writes
// it) compressed with the browser's CompressionStream('deflate-raw') and
// written base64url under `instance=`, as long as the whole address stays
// within URL_LIMIT characters; above that the page says in one line that
// the link cannot carry the instance.

/** The longest address the page writes with an instance in it (characters). */
export const URL_LIMIT = 2000;

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The `instance=` value for an instance's JSON text. */
export async function encodeInstance(json) {
  return toBase64Url(await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw')));
}

/** The instance JSON text of an `instance=` value; throws a readable error on a bad one. */
export async function decodeInstance(value) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await pipe(fromBase64Url(value), new DecompressionStream('deflate-raw')));
  } catch (e) {
    throw new Error('it is not a compressed instance (base64url of deflate-raw JSON)');
  }
}
