package dev.cairn.cli.commands.computer;

import java.nio.file.Path;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.config.ConfigFiles;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/** {@code cairn computer configure LABEL}: how the server's transport reaches a computer. */
@Command(
        name = "configure",
        description = {
            "Configure a computer's transport: for core.ssh the user, port, key file, timeout, known hosts and host"
                    + " key policy; for core.local the environment.",
            "What is not given stays as it is (--reset: starts from nothing). The server checks the parameters and"
                    + " changes nothing when one is wrong. `computer export config` writes a file --config reads."
        })
final class ComputerConfigure implements Runnable {

    @Mixin
    Session session;

    @Parameters(paramLabel = "LABEL", description = "The computer's label or uuid.")
    String label;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "A YAML (or .json) file of transport parameters: username, port, key_filename, timeout,"
                    + " known_hosts, host_key_policy, environment. Options given as well win.")
    Path config;

    @Option(names = "--username", paramLabel = "USER", description = "The SSH user.")
    String username;

    @Option(names = "--port", paramLabel = "PORT", description = "The SSH port (default 22).")
    Integer port;

    @Option(names = "--key-filename", paramLabel = "FILE", description = "The private key file, on the server's host.")
    String keyFilename;

    @Option(
            names = "--connect-timeout",
            paramLabel = "SECONDS",
            description = "How long to wait for the SSH connection (the parameter timeout).")
    Double timeout;

    @Option(names = "--known-hosts", paramLabel = "FILE", description = "The known_hosts file to check the host in.")
    String knownHosts;

    @Option(
            names = "--host-key-policy",
            paramLabel = "POLICY",
            description = "What to do with a host key not in known_hosts, as the server's SSH transport names it.")
    String hostKeyPolicy;

    @Option(
            names = "--environment",
            paramLabel = "NAME=VALUE",
            description = "An environment variable for jobs of a core.local computer (repeatable).")
    Map<String, String> environment;

    @Option(names = "--reset", description = "Start from no parameters rather than the computer's current ones.")
    boolean reset;

    @Override
    public void run() {
        ObjectNode params = JsonTrees.object();
        if (!reset) {
            JsonNode current = session.client()
                    .get(ComputerFields.path(label))
                    .path("settings")
                    .path("transport_params");
            if (current.isObject()) {
                params.setAll((ObjectNode) current);
            }
        }
        if (config != null) {
            params.setAll(ConfigFiles.read(config, ComputerFields.TRANSPORT_PARAMS));
        }
        if (username != null) {
            params.put("username", username);
        }
        if (port != null) {
            params.put("port", port);
        }
        if (keyFilename != null) {
            params.put("key_filename", keyFilename);
        }
        if (timeout != null) {
            params.put("timeout", timeout);
        }
        if (knownHosts != null) {
            params.put("known_hosts", knownHosts);
        }
        if (hostKeyPolicy != null) {
            params.put("host_key_policy", hostKeyPolicy);
        }
        if (environment != null) {
            ObjectNode env = params.putObject("environment");
            environment.forEach(env::put);
        }
        JsonNode computer = session.client().put(ComputerFields.path(label) + "/transport-params", params);
        Output out = session.output();
        if (out.json()) {
            out.print(computer.path("settings").path("transport_params"));
        } else {
            out.line("computer '" + computer.path("label").asString() + "' configured: "
                    + JsonTrees.compact(computer.path("settings").path("transport_params")));
        }
    }
}
