/**
 * Resolves once every signal this process has already received has reached its listeners.
 *
 * A Ctrl-C goes to the terminal's whole foreground group at once, so a child can die of it (and
 * its failure be seen) before our own SIGINT listener has run: libuv reads signals only in the
 * poll phase of the event loop, after that poll's other I/O callbacks. One immediate runs in the
 * current turn's check phase, a second one in the next turn's, so a full poll phase lies between.
 */
export async function pendingSignalsDelivered(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}
