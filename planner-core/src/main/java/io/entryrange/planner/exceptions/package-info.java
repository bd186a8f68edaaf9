/**
 * What planning and redemption throw, and the interrupt check that stops them: the leaf every
 * other planner package may use, depending on none of them. {@link
 * io.entryrange.planner.exceptions.InvalidBatchException} is work the pinned snapshot cannot have
 * produced (a server's 404), {@link io.entryrange.planner.exceptions.DamagedManifestException} a
 * table damaged after its commit (a server's own fault), and {@link
 * io.entryrange.planner.exceptions.Interruption} stops work whose thread was interrupted.
 */
package io.entryrange.planner.exceptions;
