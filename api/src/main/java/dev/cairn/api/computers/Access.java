package dev.cairn.api.computers;

import io.swagger.v3.oas.annotations.media.Schema;

/** Whether a computer is enabled for a user, after it was enabled or disabled. */
@Schema(
        description = "Whether a computer is enabled for a user",
        example = "{\"computer\": \"cluster\", \"user\": \"alice@example.org\", \"enabled\": false}")
record Access(String computer, String user, boolean enabled) {

    /** Whom to enable or disable a computer for. */
    @Schema(description = "whom to enable or disable the computer for; without it, the caller")
    public record ForUser(
            @Schema(
                    description = "a user's email; left out or null: the caller",
                    example = "alice@example.org",
                    nullable = true)
            String user) {}
}
