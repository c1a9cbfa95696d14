/**
 * Group admission (issue 19): the requests a node receives while its previous admission statement is in flight
 * wait for it and then go together, in one statement (jornada_authenticate_many). When nothing is in flight, the
 * requests that arrived in the same turn of the event loop go at once. A lone request therefore waits for no
 * timer, and under load the statements per request fall with the load, as a database's group commit does.
 *
 * Every request is still counted in the shared counters before it is served (the batch commits first), so the
 * windows and quotas stay exact across nodes. A failed statement fails every request of its batch.
 */
export type Batcher<I, O> = (input: I) => Promise<O>;

type Pending<I, O> = { input: I; resolve: (output: O) => void; reject: (error: unknown) => void };

export function groupAdmission<I, O>(
  run: (inputs: readonly I[]) => Promise<readonly O[]>,
  options: { maxBatch: number },
): Batcher<I, O> {
  let queue: Pending<I, O>[] = [];
  let busy = false;

  function send(): void {
    if (queue.length === 0) {
      busy = false;
      return;
    }
    busy = true;
    const batch = queue.length <= options.maxBatch ? queue : queue.slice(0, options.maxBatch);
    queue = batch === queue ? [] : queue.slice(options.maxBatch);
    run(batch.map((pending) => pending.input)).then(
      (outputs) => {
        if (outputs.length !== batch.length) {
          const error = new Error(`an admission batch of ${batch.length} returned ${outputs.length} results`);
          for (const pending of batch) pending.reject(error);
        } else {
          for (const [index, pending] of batch.entries()) pending.resolve(outputs[index] as O);
        }
        send();
      },
      (error: unknown) => {
        for (const pending of batch) pending.reject(error);
        send();
      },
    );
  }

  return (input) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (!busy) {
        busy = true;
        setImmediate(send);
      }
    });
}
