// Node 20 lacks two built-ins that pdf.js (unpdf 1.8.1, built for Node 22 and workerd) calls:
// `Promise.withResolvers` and `ArrayBuffer.prototype.transferToFixedLength`. Tests and scripts run
// under Node install these stand-ins before pdf.js is loaded; workerd has the real ones.
// Loaded as a vitest setup file, the import alone installs them.

interface ArrayBufferWithTransfer {
  transferToFixedLength?: (length?: number) => ArrayBuffer;
}

export function installNode22StandIns(): void {
  const P = Promise as unknown as { withResolvers?: unknown };
  if (typeof P.withResolvers !== 'function') {
    P.withResolvers = function withResolvers<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    };
  }
  const proto = ArrayBuffer.prototype as unknown as ArrayBufferWithTransfer;
  if (typeof proto.transferToFixedLength !== 'function') {
    // A copy, not a transfer: the source stays usable, which no caller here relies on either way.
    proto.transferToFixedLength = function transferToFixedLength(this: ArrayBuffer, length?: number): ArrayBuffer {
      const size = length ?? this.byteLength;
      const copy = new ArrayBuffer(size);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(size, this.byteLength)));
      return copy;
    };
  }
}

installNode22StandIns();
