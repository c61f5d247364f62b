package dev.cairn.e2e.hosts;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * A RabbitMQ cluster of {@link RabbitNode}s, each on a host of its own ({@code mq1} …): one Erlang
 * cookie, each node its own name, data folder and epmd (its host's), the second and later nodes
 * joined to the first with {@code rabbitmqctl join_cluster}. A node killed and started again comes
 * back as the member it was. What the tests ask of it goes to a node that is up.
 */
public final class RabbitCluster implements AutoCloseable {

    private final List<RabbitNode> nodes;

    private RabbitCluster(List<RabbitNode> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts {@code size} nodes at once on new hosts {@code mq1} … of {@code network}, then joins them. */
    public static RabbitCluster start(Network network, int size, String cookie) {
        List<Host> hosts = IntStream.rangeClosed(1, size)
                .mapToObj(i -> network.host("mq" + i))
                .toList();
        List<CompletableFuture<RabbitNode>> starting = hosts.stream()
                .map(h -> CompletableFuture.supplyAsync(() -> RabbitNode.start(h, h.address(), cookie, Map.of())))
                .toList();
        List<RabbitNode> nodes = starting.stream().map(CompletableFuture::join).toList();
        RabbitCluster cluster = new RabbitCluster(nodes);
        try {
            for (RabbitNode node : nodes.subList(1, size)) {
                node.joinCluster(nodes.getFirst());
            }
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    public List<RabbitNode> nodes() {
        return nodes;
    }

    /** {@code address:port} of every node, as other hosts reach them: {@code cairn.broker.addresses}. */
    public List<String> addresses() {
        return nodes.stream().map(n -> n.address() + ":" + RabbitNode.PORT).toList();
    }

    /** {@code 127.0.0.1:port} of every node's relay, as the tests reach them. */
    public List<String> relayedAddresses() {
        return nodes.stream().map(RabbitNode::relayedAddress).toList();
    }

    /** The hosts of the nodes. */
    public List<Host> hosts() {
        return nodes.stream().map(RabbitNode::host).toList();
    }

    /** {@code rabbitmqctl -s ARGS} on a node that is up: what it printed, without headers. */
    public String ctl(String... args) {
        RabbitNode up = nodes.stream()
                .filter(n -> n.process().isAlive())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of the cluster is up"));
        String[] all = new String[args.length + 1];
        all[0] = "-s";
        System.arraycopy(args, 0, all, 1, args.length);
        return up.ctl(all);
    }

    /**
     * The node each of {@code clients} has an AMQP connection open to, by the client's sockets
     * ({@code ss}: cheap, and right at once where a node's view waits on its peers); a client with
     * none is left out, one with several is given the first.
     */
    public Map<Host, RabbitNode> serving(List<Host> clients) {
        Map<Host, RabbitNode> serving = new LinkedHashMap<>();
        for (Host client : clients) {
            for (String line :
                    client.exec(List.of("ss", "-Htn", "state", "established")).split("\n")) {
                String[] columns = line.strip().split("\\s+");
                // a JVM's sockets are IPv6 ones: [::ffff:10.231.0.8]:5672
                String peer =
                        columns[columns.length - 1].replace("[::ffff:", "").replace("]", "");
                nodes.stream()
                        .filter(n -> peer.equals(n.address() + ":" + RabbitNode.PORT))
                        .findFirst()
                        .ifPresent(n -> serving.putIfAbsent(client, n));
            }
        }
        return serving;
    }

    /** The node of the leader of the quorum queue {@code queue}. */
    public RabbitNode leaderOf(String queue) {
        String line = queueLine(queue, "leader");
        return nodes.stream()
                .filter(n -> line.endsWith("\t" + n.nodeName()) || line.endsWith(" " + n.nodeName()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of the cluster leads " + queue + ": " + line));
    }

    /**
     * Waits until every node is a member of the quorum queue {@code queue} that is online (a node
     * started again has rejoined its Raft group), so that losing another node leaves a majority.
     */
    public void awaitAllOnline(String queue, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String line = "";
        while (System.nanoTime() < deadline) {
            try {
                line = queueLine(queue, "online");
                List<String> online = Arrays.asList(line.split("[\\s,\\[\\]]+"));
                if (nodes.stream().map(RabbitNode::nodeName).allMatch(online::contains)) {
                    return;
                }
            } catch (RuntimeException e) {
                line = e.getMessage(); // a node starting may not answer yet
            }
            HostProcess.sleep(Duration.ofMillis(250));
        }
        throw new AssertionError("not every node of the cluster was online in " + queue + " within "
                + timeout.toSeconds() + " s: " + line);
    }

    private String queueLine(String queue, String column) {
        Predicate<String> ours = l -> l.startsWith(queue + "\t") || l.startsWith(queue + " ");
        String out = ctl("list_queues", "name", column);
        return Arrays.stream(out.split("\n"))
                .map(String::strip)
                .filter(ours)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the cluster has no queue " + queue + ": " + out));
    }

    @Override
    public void close() {
        nodes.forEach(RabbitNode::close);
    }
}
