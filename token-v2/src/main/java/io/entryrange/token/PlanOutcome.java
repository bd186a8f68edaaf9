package io.entryrange.token;

import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;

/**
 * What a submitted plan came to, as a poll answers it: {@code completed} with its tasks and plan
 * tasks, {@code failed} with the error, or {@code cancelled}.
 *
 * @param reply the poll's answer, with its JSON when written
 * @param expiresMillis when the plan expires, after which nobody may fetch it
 * @param weightBytes heap it holds, for the bound of the results held
 * @param failure what failed, for a {@code failed} plan; else null
 */
record PlanOutcome(
    ScanReply<FetchPlanningResultResponse> reply,
    long expiresMillis,
    int weightBytes,
    Exception failure) {}
