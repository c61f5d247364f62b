package dev.cairn.api.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.users.UserStore;

/** The Cairn users behind JWTs, found by email and made on first sight; ids are kept once found. */
final class UserAccounts {

    private final UserStore users;
    private final Map<String, Long> ids = new ConcurrentHashMap<>();

    UserAccounts(UserStore users) {
        this.users = users;
    }

    long idOf(String email) {
        return ids.computeIfAbsent(
                email,
                e -> users.findByEmail(e)
                        .orElseGet(() -> {
                            try {
                                return users.create(e, "", "", "");
                            } catch (ConflictException raced) {
                                return users.findByEmail(e).orElseThrow();
                            }
                        })
                        .id());
    }
}
