package io.entryrange.token;

/**
 * A plan task as redemption reads it: what it names, and the plan that handed it out.
 *
 * @param plan the plan it is bound to, or null for a plan task written without one (by a tool, or
 *     by a server before plan ids), which no cancellation or expiry reaches
 */
record IssuedPlanTask(PlanTask task, PlanBinding plan) {}
