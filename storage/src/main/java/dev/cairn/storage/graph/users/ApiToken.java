package dev.cairn.storage.graph.users;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A bearer token of a server's API as stored: never its secret, only a hash of it.
 *
 * @param userEmail the email of the user it acts as
 * @param roles     what it may do, by name (read, submit, admin)
 * @param expires   when it stops working, or null for never
 * @param lastUsed  when a request last came with it, or null
 * @param revoked   when it was revoked, or null
 */
public record ApiToken(
        long id,
        UUID uuid,
        long userId,
        String userEmail,
        String name,
        List<String> roles,
        OffsetDateTime created,
        OffsetDateTime expires,
        OffsetDateTime lastUsed,
        OffsetDateTime revoked) {

    public ApiToken {
        roles = List.copyOf(roles);
    }
}
