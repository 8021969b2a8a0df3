// Where a job's page content is kept: in the job's own storage when small (a record stays well under
// a SQLite row's 2 MB), else in R2 under the job's prefix, so retention deletes it with the job.

/** Content up to this many UTF-8 bytes stays in the job's storage. */
export const INLINE_DATA_BYTES = 64 * 1024;

export function jobDataPrefix(jobId: string): string {
  return `jobs/${jobId}/`;
}

export function pageDataKey(jobId: string): string {
  return `${jobDataPrefix(jobId)}${crypto.randomUUID()}`;
}
