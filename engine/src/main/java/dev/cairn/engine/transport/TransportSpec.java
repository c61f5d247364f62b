package dev.cairn.engine.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * How to reach a computer: this machine, or a host over SSH. {@link Transports#open} turns a
 * spec into a connected {@link Transport}.
 */
public sealed interface TransportSpec permits TransportSpec.Local, TransportSpec.Ssh {

    /**
     * This machine. {@code environment} is added to the environment of the commands it runs
     * (e.g. {@code SLURM_CONF} for a cluster whose configuration is not in the default place).
     */
    record Local(Map<String, String> environment) implements TransportSpec {
        public Local {
            environment = Map.copyOf(environment);
        }

        public Local() {
            this(Map.of());
        }
    }

    /**
     * A host over SSH, authenticated with a private key file (OpenSSH or PEM format, without
     * a passphrase) and/or a password.
     *
     * @param knownHosts     the known_hosts file that host keys are checked against (and added
     *                       to, under {@link HostKeyPolicy#ACCEPT_NEW}); default
     *                       {@code ~/.ssh/known_hosts}
     * @param hostKeyPolicy  default {@link HostKeyPolicy#ACCEPT_NEW}
     * @param connectTimeout for connecting and for authenticating, each; default 30 s
     */
    record Ssh(
            String host,
            int port,
            String user,
            Path keyFile,
            String password,
            Path knownHosts,
            HostKeyPolicy hostKeyPolicy,
            Duration connectTimeout)
            implements TransportSpec {

        public static final int DEFAULT_PORT = 22;
        public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);

        public Ssh {
            if (host == null || host.isBlank()) {
                throw new InvalidInputException("an SSH transport needs a host");
            }
            if (port < 1 || port > 65535) {
                throw new InvalidInputException("SSH port " + port + " of " + host + " is not in 1-65535");
            }
            if (user == null || user.isBlank()) {
                throw new InvalidInputException("an SSH transport to " + host + " needs a user");
            }
            if (keyFile == null && password == null) {
                throw new InvalidInputException(
                        "an SSH transport to " + user + "@" + host + " needs a private key file or a password");
            }
            knownHosts =
                    knownHosts != null ? knownHosts : Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
            hostKeyPolicy = hostKeyPolicy != null ? hostKeyPolicy : HostKeyPolicy.ACCEPT_NEW;
            connectTimeout = connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
            if (connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw new InvalidInputException("the SSH connect timeout must be positive, not " + connectTimeout);
            }
        }

        /** Port 22, the user's known_hosts, accept-new, and the default timeout. */
        public static Ssh withKey(String host, String user, Path keyFile) {
            return new Ssh(host, DEFAULT_PORT, user, keyFile, null, null, null, null);
        }

        public Ssh withPort(int port) {
            return new Ssh(host, port, user, keyFile, password, knownHosts, hostKeyPolicy, connectTimeout);
        }

        public Ssh withPassword(String password) {
            return new Ssh(host, port, user, keyFile, password, knownHosts, hostKeyPolicy, connectTimeout);
        }

        public Ssh withKnownHosts(Path knownHosts, HostKeyPolicy hostKeyPolicy) {
            return new Ssh(host, port, user, keyFile, password, knownHosts, hostKeyPolicy, connectTimeout);
        }

        public Ssh withConnectTimeout(Duration connectTimeout) {
            return new Ssh(host, port, user, keyFile, password, knownHosts, hostKeyPolicy, connectTimeout);
        }

        /** {@code user@host:port}, for messages. */
        public String where() {
            return user + "@" + host + ":" + port;
        }

        /** Never shows the password: specs end up in logs. */
        @Override
        public String toString() {
            return "Ssh[" + where() + ", keyFile=" + keyFile + ", password=" + (password == null ? "none" : "***")
                    + ", knownHosts=" + knownHosts + ", hostKeyPolicy=" + hostKeyPolicy + ", connectTimeout="
                    + connectTimeout
                    + "]";
        }
    }

    /** The parameter names {@link #of} reads for ssh; aiida's names where aiida has one. */
    Set<String> SSH_PARAMETERS =
            Set.of("username", "port", "key_filename", "timeout", "known_hosts", "host_key_policy");

    /**
     * A spec from a computer's stored configuration: its transport type ({@code local} or
     * {@code ssh}, optionally prefixed {@code core.}), its hostname, and the user's parameters
     * ({@link #SSH_PARAMETERS}: {@code username} (default: this user), {@code port},
     * {@code key_filename}, {@code timeout} in seconds, {@code known_hosts},
     * {@code host_key_policy}); for local, {@code environment}. Passwords are not stored, so none is read here. An unknown
     * parameter is refused rather than ignored: a proxy that is silently not used would fail
     * later, and less clearly.
     */
    static TransportSpec of(String type, String hostname, Map<String, ?> params) {
        Objects.requireNonNull(type, "transport type");
        Map<String, Object> p = new HashMap<>(params == null ? Map.of() : params);
        return switch (type.startsWith("core.") ? type.substring("core.".length()) : type) {
            case "local" -> {
                Object env = p.remove("environment");
                if (!p.isEmpty()) {
                    throw new InvalidInputException(
                            "the local transport takes only the parameter 'environment', not " + p.keySet());
                }
                Map<String, String> variables = new HashMap<>();
                if (env instanceof Map<?, ?> m) {
                    m.forEach((k, v) -> variables.put(String.valueOf(k), String.valueOf(v)));
                } else if (env != null) {
                    throw new InvalidInputException(
                            "the local transport's 'environment' must be a map of variables, not " + env);
                }
                yield new Local(variables);
            }
            case "ssh" -> {
                for (String name : p.keySet()) {
                    if (!SSH_PARAMETERS.contains(name)) {
                        throw new InvalidInputException("unknown ssh transport parameter '" + name + "' for " + hostname
                                + "; known: " + SSH_PARAMETERS.stream().sorted().toList());
                    }
                }
                Object user = p.getOrDefault("username", System.getProperty("user.name"));
                Object policy = p.get("host_key_policy");
                yield new Ssh(
                        hostname,
                        p.containsKey("port") ? number("port", p.get("port")).intValue() : Ssh.DEFAULT_PORT,
                        user.toString(),
                        path(p.get("key_filename")),
                        null,
                        path(p.get("known_hosts")),
                        policy == null ? null : HostKeyPolicy.parse(policy.toString()),
                        p.containsKey("timeout")
                                ? Duration.ofMillis((long)
                                        (number("timeout", p.get("timeout")).doubleValue() * 1000))
                                : null);
            }
            default -> throw new InvalidInputException("unknown transport type '" + type + "': use 'local' or 'ssh'");
        };
    }

    /** A number stored as JSON number or as text. */
    private static Number number(String name, Object value) {
        if (value instanceof Number n) {
            return n;
        }
        try {
            return Double.valueOf(String.valueOf(value).trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException(
                    "ssh transport parameter '" + name + "' must be a number, not '" + value + "'");
        }
    }

    /** A local path; a leading {@code ~/} is this user's home, as in OpenSSH's configuration. */
    private static Path path(Object value) {
        if (value == null) {
            return null;
        }
        String s = value.toString();
        return s.startsWith("~/") ? Path.of(System.getProperty("user.home"), s.substring(2)) : Path.of(s);
    }
}
