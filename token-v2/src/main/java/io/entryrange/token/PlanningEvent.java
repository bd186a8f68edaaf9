package io.entryrange.token;

import java.time.Duration;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What one planning or redemption call did, as a {@link PlanningListener} receives it.
 *
 * @param principal the authenticated principal the call was made for, or null
 * @param table the table in the request path
 * @param entriesDecoded manifest entries decoded by entry-range planning or redemption (0 on the
 *     offset path, whose whole-snapshot plan Iceberg makes, and for a refused plan task)
 * @param bytesRead bytes read from storage by this call, every file included
 * @param duration from the start of the call to the event
 */
public record PlanningEvent(
    String principal,
    TableIdentifier table,
    long entriesDecoded,
    long bytesRead,
    Duration duration) {}
