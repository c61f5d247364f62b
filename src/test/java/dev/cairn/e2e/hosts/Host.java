package dev.cairn.e2e.hosts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One host of a {@link Network}: a network namespace with its addresses on the network's bridge,
 * and a folder of its own under the network's (the file system itself is shared, as over NFS).
 * Processes started here ({@link #start}) see only this host's interfaces.
 */
public final class Host {

    private final Network network;
    private final String name;
    private final String namespace;
    private final String veth;
    private final Path dir;
    private final List<String> addresses = new ArrayList<>();
    private final List<List<String>> partitionRules = new ArrayList<>();

    Host(Network network, String name, String namespace, String veth, Path dir) {
        this.network = network;
        this.name = name;
        this.namespace = namespace;
        this.veth = veth;
        this.dir = dir;
    }

    public String name() {
        return name;
    }

    /** The namespace's name, for {@code ip netns exec} by hand. */
    public String namespace() {
        return namespace;
    }

    /** The host's first address. */
    public String address() {
        return addresses.getFirst();
    }

    public synchronized List<String> addresses() {
        return List.copyOf(addresses);
    }

    /**
     * One more address on this host's interface: a service listening on it alone can be kept
     * from another host ({@link #partitionFrom}) while the host's other services stay in reach.
     */
    public synchronized String addAddress() {
        String address = network.nextAddress();
        Ip.run("-n", namespace, "addr", "add", address + "/24", "dev", "eth0");
        addresses.add(address);
        return address;
    }

    /** The host's folder (its services' data, its processes' logs). */
    public Path dir() {
        return dir;
    }

    public Network network() {
        return network;
    }

    /** {@code command} as run on this host. */
    public List<String> command(List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        all.addAll(command);
        return all;
    }

    /** Starts {@code command} on this host; its output goes, line by line with the time, to {@code <dir>/<name>.log}. */
    public HostProcess start(String processName, List<String> command, Map<String, String> environment) {
        return HostProcess.start(this, processName, command(command), environment);
    }

    public HostProcess start(String processName, List<String> command) {
        return start(processName, command, Map.of());
    }

    /** Runs {@code command} on this host to its end; fails with its output when it exits non-zero. */
    public String exec(List<String> command) {
        return Ip.exec(command(command));
    }

    /**
     * Pulls the host's cable: its link to the bridge goes down, and nothing it sends arrives nor
     * anything sent to it. Connections are not closed: each side finds out by its own timeouts.
     */
    public void cut() {
        Ip.run("link", "set", veth, "down");
    }

    /** Plugs the cable back in. */
    public void restore() {
        Ip.run("link", "set", veth, "up");
    }

    /**
     * Keeps this host and {@code theirAddress} of {@code other} from reaching each other, both
     * ways, while everything else stays in reach: routing rules on both hosts answer "network
     * unreachable" for packets between the two (as a router that lost the route would), so new
     * connections fail at once and open ones hear nothing more.
     */
    public synchronized void partitionFrom(Host other, String theirAddress) {
        if (!other.addresses().contains(theirAddress)) {
            throw new IllegalArgumentException(theirAddress + " is not an address of " + other.name());
        }
        rule(List.of("-n", namespace, "rule", "add", "to", theirAddress, "unreachable"));
        for (String mine : addresses()) {
            rule(List.of("-n", other.namespace, "rule", "add", "from", theirAddress, "to", mine, "unreachable"));
        }
    }

    private void rule(List<String> add) {
        Ip.run(add.toArray(String[]::new));
        partitionRules.add(add);
    }

    /** Takes back every {@link #partitionFrom} of this host. */
    public synchronized void heal() {
        for (List<String> add : partitionRules) {
            List<String> delete = new ArrayList<>(add);
            delete.set(delete.indexOf("add"), "delete");
            Ip.quietly(delete.toArray(String[]::new));
        }
        partitionRules.clear();
    }

    /** The pids of every process on this host. */
    public List<Long> pids() {
        return Ip.pids(namespace);
    }

    /**
     * SIGKILL to every process on this host, until none is left (a killed shell's children are
     * killed in the next round); returns how many were killed.
     */
    public int killAll() {
        int killed = 0;
        for (int round = 0; round < 20; round++) {
            List<Long> pids = pids();
            if (pids.isEmpty()) {
                return killed;
            }
            for (long pid : pids) {
                if (ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false)) {
                    killed++;
                }
            }
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
            }
        }
        throw new IllegalStateException("processes on " + name + " outlived 20 rounds of SIGKILL: " + pids());
    }

    @Override
    public String toString() {
        return name + " (" + String.join(", ", addresses) + ")";
    }
}
