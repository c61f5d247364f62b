package dev.cairn.api.computers;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.graph.computers.Computer;

/**
 * A computer as the API shows it.
 *
 * @param enabled whether it is enabled for the user asking (a computer nobody disabled is)
 * @param users   the users it was enabled or disabled for, each with its state
 * @param nodes   how many nodes name it (jobs that ran there, codes installed there)
 */
@Schema(description = "A computer calculation jobs run on", example = """
                {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "label": "cluster",
                 "hostname": "login.cluster.example.org", "description": "the group's cluster",
                 "transportType": "core.ssh", "schedulerType": "core.slurm",
                 "settings": {"workdir": "/scratch/alice/cairn", "transport_params": {"username": "alice",
                 "key_filename": "~/.ssh/id_ed25519"}, "max_connections": 4},
                 "enabled": true, "users": [{"user": "alice@example.org", "enabled": true}], "nodes": 1204}""")
record ComputerView(
        UUID uuid,
        String label,
        String hostname,
        String description,
        String transportType,
        String schedulerType,

        @Schema(description = "the computer's settings (workdir, transport_params, max_connections, ...)")
        Map<String, Object> settings,

        @Schema(description = "whether the computer is enabled for the user asking")
        boolean enabled,

        @Schema(description = "users the computer was enabled or disabled for")
        List<UserState> users,

        @Schema(description = "how many nodes name the computer")
        long nodes) {

    /** Whether a computer is enabled for one user. */
    @Schema(description = "whether a computer is enabled for one user")
    public record UserState(
            @Schema(example = "alice@example.org") String user, boolean enabled) {}

    static ComputerView of(Computer c, boolean enabled, List<UserState> users, long nodes) {
        return new ComputerView(
                c.uuid(),
                c.label(),
                c.hostname(),
                c.description(),
                c.transportType(),
                c.schedulerType(),
                c.metadata(),
                enabled,
                users,
                nodes);
    }
}
