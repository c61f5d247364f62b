package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Hosts made of Linux network namespaces, each with an address of its own on a bridge of this
 * network's own: a process started on a host sees that host's interfaces only, so what it says to
 * another host crosses the bridge, and a host can be cut off ({@link Host#cut()}) or kept from one
 * address of another host ({@link Host#partitionFrom}) as a network fails.
 * {@snippet :
 * try (Network network = Network.create()) {
 *     Host db = network.host("db");                    // 10.231.0.2
 *     Host worker = network.host("worker1");           // 10.231.0.3
 *     worker.start("ping", List.of("ping", "-c", "1", db.address()));
 * }
 * }
 * Traffic stays inside: the bridge has no address and the hosts no default route, so nothing they
 * send can leave this machine, and this machine itself never addresses them. Tests reach a host's
 * service through a {@link Relay} over a Unix socket instead.
 * <p>
 * Needs root (namespaces, veth pairs and bridges are made with {@code ip} of iproute2). Every name
 * carries a tag made of this JVM's pid, so that networks of runs at once never meet, and each
 * network's hosts use the same subnet, {@value #SUBNET}.0/24, on a bridge of their own. A JVM told
 * to stop closes its networks on the way out; one killed leaves namespaces, links and a folder
 * behind, and {@link #create()} removes those of every tag whose JVM is gone, first.
 */
public final class Network implements AutoCloseable {

    /** The first three octets of every network's hosts; the bridge keeps them apart. */
    static final String SUBNET = "10.231.0";

    static final String NAMESPACE_PREFIX = "cairnhosts-";
    static final String LINK_PREFIX = "cairn";
    private static final String DIR_PREFIX = "cairn-hosts-";
    private static final AtomicInteger NETWORKS = new AtomicInteger();

    private final String tag;
    private final String bridge;
    private final Path dir;
    private final List<Host> hosts = new ArrayList<>();
    /** Closes the network when the JVM is told to stop (Ctrl-C of a build) before the tests could. */
    private final Thread onExit = new Thread(this::close, "network-clean-up");

    private boolean closed;

    private Network(String tag, Path dir) {
        this.tag = tag;
        this.bridge = LINK_PREFIX + "b" + tag;
        this.dir = dir;
    }

    /** Removes what killed runs left behind, then makes a bridge and a folder for a new network. */
    public static Network create() {
        removeLeftovers();
        String tag =
                Long.toString(ProcessHandle.current().pid(), 36) + Integer.toString(NETWORKS.incrementAndGet(), 36);
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), DIR_PREFIX + tag);
        try {
            deleteTree(dir);
            Files.createDirectories(dir);
            // PostgreSQL and RabbitMQ run as users of their own and must reach their folders
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + dir, e);
        }
        Network network = new Network(tag, dir);
        Runtime.getRuntime().addShutdownHook(network.onExit);
        Ip.run("link", "add", network.bridge, "type", "bridge");
        Ip.run("link", "set", network.bridge, "up");
        return network;
    }

    /**
     * A new host on this network with the next free address ({@value #SUBNET}.2 for the first), its
     * loopback up and no default route.
     */
    public synchronized Host host(String name) {
        if (closed) {
            throw new IllegalStateException("network " + tag + " is closed");
        }
        if (!name.matches("[a-z][a-z0-9]{0,11}")) {
            throw new IllegalArgumentException(
                    "a host name is up to 12 lower-case letters and digits, starting with a letter: '" + name + "'");
        }
        if (hosts.stream().anyMatch(h -> h.name().equals(name))) {
            throw new IllegalArgumentException("network " + tag + " has a host " + name + " already");
        }
        int index = hosts.size();
        if (index >= 36) {
            throw new IllegalStateException("network " + tag + " has 36 hosts, its most");
        }
        String namespace = NAMESPACE_PREFIX + tag + "-" + name;
        String veth = LINK_PREFIX + "v" + tag + Integer.toString(index, 36);
        Path hostDir = dir.resolve(name);
        try {
            Files.createDirectories(hostDir);
            Files.setPosixFilePermissions(hostDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Ip.run("netns", "add", namespace);
        Ip.run("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", namespace);
        Ip.run("link", "set", veth, "master", bridge, "up");
        Ip.run("-n", namespace, "link", "set", "lo", "up");
        Ip.run("-n", namespace, "link", "set", "eth0", "up");
        Host host = new Host(this, name, namespace, veth, hostDir);
        hosts.add(host);
        host.addAddress();
        return host;
    }

    private int addresses;

    /** The next unused address of the subnet: .2, .3, … (.1 is left for a gateway there never is). */
    synchronized String nextAddress() {
        int last = 2 + addresses++;
        if (last > 254) {
            throw new IllegalStateException("network " + tag + " has no address left in " + SUBNET + ".0/24");
        }
        return SUBNET + "." + last;
    }

    public List<Host> hosts() {
        return List.copyOf(hosts);
    }

    /** This network's folder, shared by its hosts as a cluster shares a file system. */
    public Path dir() {
        return dir;
    }

    public String tag() {
        return tag;
    }

    /** Kills every process on every host, then removes the hosts, the bridge and the folder. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (Thread.currentThread() != onExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(onExit);
            } catch (IllegalStateException stopping) {
                // the JVM is on its way out: the hook runs this anyway, and finds it closed
            }
        }
        for (Host host : hosts) {
            host.killAll();
        }
        for (Host host : hosts) {
            Ip.quietly("netns", "delete", host.namespace());
        }
        Ip.quietly("link", "delete", bridge);
        try {
            deleteTree(dir);
        } catch (IOException e) {
            // a file a killed process still held open: removed with the next run's leftovers
        }
    }

    /**
     * Removes namespaces, links and folders of networks whose JVM has gone (killed before its
     * {@link #close()} ran). A tag is the pid in base 36 followed by one character.
     */
    static void removeLeftovers() {
        for (String namespace : Ip.namespaces()) {
            if (namespace.startsWith(NAMESPACE_PREFIX)) {
                String tag = namespace.substring(NAMESPACE_PREFIX.length()).split("-", 2)[0];
                if (!alive(tag)) {
                    for (long pid : Ip.pids(namespace)) {
                        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                    }
                    Ip.quietly("netns", "delete", namespace);
                }
            }
        }
        for (String link : Ip.links()) {
            String rest = link.startsWith(LINK_PREFIX) ? link.substring(LINK_PREFIX.length()) : "";
            // a bridge is named b<tag>, a host's veth v<tag><its index, one character>
            String tag = rest.startsWith("b")
                    ? rest.substring(1)
                    : rest.startsWith("v") ? rest.substring(1, Math.max(1, rest.length() - 1)) : null;
            if (tag != null && !alive(tag)) {
                Ip.quietly("link", "delete", link);
            }
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> entries = Files.list(tmp)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (name.startsWith(DIR_PREFIX) && !alive(name.substring(DIR_PREFIX.length()))) {
                    deleteTree(entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean " + tmp + " of old networks' folders", e);
        }
    }

    /** Whether the JVM that made the network of {@code tag} still runs (unparsable tags count as alive). */
    private static boolean alive(String tag) {
        if (tag.length() < 2 || !tag.matches("[0-9a-z]+")) {
            return true;
        }
        long pid = Long.parseLong(tag.substring(0, tag.length() - 1), 36);
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public String toString() {
        return "network " + tag + " (bridge " + bridge + ", " + hosts.size() + " hosts)";
    }
}
