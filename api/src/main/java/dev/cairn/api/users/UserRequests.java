package dev.cairn.api.users;

import io.swagger.v3.oas.annotations.media.Schema;

/** What clients send to add and change users. */
final class UserRequests {

    private UserRequests() {}

    /** A user to add. */
    @Schema(description = "A user to add")
    public record NewUser(
            @Schema(
                    description = "the user's email, their identity",
                    example = "alice@example.org",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String email,

            @Schema(example = "Alice", nullable = true) String firstName,
            @Schema(example = "Liddell", nullable = true) String lastName,
            @Schema(example = "EPFL", nullable = true) String institution) {}

    /** What to change of a user; what is left out stays. */
    @Schema(description = "A user's names and institution to change; a field left out (or null) stays as it is")
    public record UserPatch(
            @Schema(example = "Alice", nullable = true) String firstName,
            @Schema(example = "Hargreaves", nullable = true) String lastName,
            @Schema(example = "EPFL", nullable = true) String institution) {}
}
