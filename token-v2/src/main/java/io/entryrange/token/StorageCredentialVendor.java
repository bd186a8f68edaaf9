package io.entryrange.token;

import java.util.List;
import org.apache.iceberg.rest.credentials.Credential;

/**
 * The catalog's own way of handing out storage access, called by the planning service: STS
 * session credentials with a policy of the grant's {@link StorageGrant#prefixes prefixes}, a
 * remote signer's endpoint and the grant's {@link StorageGrant#token token}, a SAS per prefix, or
 * nothing ({@link #NONE}, the default).
 *
 * <p>Why the service calls it and not the host: credentials must ride with the plan. A plan
 * response ({@code POST .../plan}, and a poll's {@code completed} answer) carries the credentials
 * of its plan's grant, and {@code GET .../credentials?planId=} renews them, on any replica; a
 * redemption ({@code /tasks}) carries none (the REST specification has none there), so what a
 * plan's credentials cover covers every file of its plan tasks. Load-table carries table-wide
 * credentials ({@link #tableCredentials}) only for a principal whose reads of the table no {@link
 * ScanPolicy} restricts: a restricted principal gets storage access only through plans, which the
 * policy has narrowed, and so cannot read a withheld column or row by planning on its own.
 *
 * <p>Each credential's {@code prefix} says which locations it is for (a client picks the longest
 * matching one), and its {@code config} what a client's FileIO needs, the expiry included (for
 * example {@code s3.session-token-expires-at-ms}). Must be thread-safe; called on request threads.
 */
public interface StorageCredentialVendor {
  /** Vends nothing: clients read storage with what they hold themselves. */
  StorageCredentialVendor NONE = grant -> List.of();

  /**
   * The {@code storage-credentials} of a plan grant: covering its objects, never beyond its
   * {@link StorageGrant#prefixes prefixes} (or checked object by object through its token), and
   * expiring at {@link StorageGrant#expiresMillis} at the latest. Empty for none.
   */
  List<Credential> planCredentials(StorageGrant grant);

  /**
   * The {@code storage-credentials} of a table grant, for load-table and {@code GET
   * .../credentials} without a plan id: only ever asked for a principal no policy restricts on
   * that table. None by default.
   */
  default List<Credential> tableCredentials(StorageGrant grant) {
    return List.of();
  }
}
