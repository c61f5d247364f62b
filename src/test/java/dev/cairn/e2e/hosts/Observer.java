package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * What the services see of the workers, asked from outside the network (through the relays):
 * the consumers of the task queue, the database sessions of a host, and the process rows a host's
 * sessions hold locked (the steps it has in flight), with {@code pgrowlocks}.
 */
final class Observer implements AutoCloseable {

    private final Lab lab;
    private final Connection amqp;

    private Observer(Lab lab, Connection amqp) {
        this.lab = lab;
        this.amqp = amqp;
    }

    static Observer of(Lab lab) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(lab.rabbit().relayedAmqpUri());
        } catch (URISyntaxException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        factory.setAutomaticRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(250);
        try (var c = lab.db().connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pgrowlocks");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the extension pgrowlocks: " + e.getMessage(), e);
        }
        // the workers' brokers: a cluster's nodes, any that answers
        return new Observer(
                lab,
                factory.newConnection(
                        lab.relayedBrokerAddresses().stream()
                                .map(Address::parseAddress)
                                .toList(),
                        "hosts-observer"));
    }

    /** Consumers of the task queue, as the broker counts them; -1 when it did not answer. */
    int taskConsumers() {
        try (Channel channel = amqp.createChannel()) {
            AMQP.Queue.DeclareOk ok = channel.queueDeclarePassive(lab.prefix() + ".tasks");
            return ok.getConsumerCount();
        } catch (IOException | TimeoutException | RuntimeException e) {
            return -1;
        }
    }

    /** The database sessions from {@code host}'s addresses; -1 when the database did not answer. */
    int sessionsFrom(Host host) {
        try (var c = lab.db().connect();
                PreparedStatement s =
                        c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE host(client_addr) = ANY(?)")) {
            s.setArray(1, c.createArrayOf("text", host.addresses().toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    /** The process rows that sessions of {@code host} hold locked (its steps in flight): node id → step. */
    Map<Long, Integer> lockedBy(Host host) throws SQLException {
        Map<Long, Integer> held = new HashMap<>();
        try (var c = lab.db().connect();
                PreparedStatement s = c.prepareStatement("SELECT p.node_id, p.step FROM pgrowlocks('process') r"
                        + " JOIN process p ON p.ctid = r.locked_row"
                        + " WHERE EXISTS (SELECT 1 FROM pg_stat_activity a"
                        + " WHERE a.pid = ANY(r.pids) AND host(a.client_addr) = ANY(?))")) {
            s.setArray(1, c.createArrayOf("text", host.addresses().toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    held.put(rs.getLong(1), rs.getInt(2));
                }
            }
        }
        return held;
    }

    /** How many of {@code held} (node id → step then) have not committed a step since, nor ended; -1: no answer. */
    int stillWaiting(Map<Long, Integer> held) {
        if (held.isEmpty()) {
            return 0;
        }
        try (var c = lab.db().connect();
                PreparedStatement s =
                        c.prepareStatement("SELECT node_id, step, state FROM process WHERE node_id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", held.keySet().toArray()));
            int waiting = 0;
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    boolean ended = !rs.getString(3).equals("created")
                            && !rs.getString(3).equals("waiting");
                    if (!ended && rs.getInt(2) <= held.get(rs.getLong(1))) {
                        waiting++;
                    }
                }
            }
            return waiting;
        } catch (SQLException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        try {
            amqp.close();
        } catch (IOException | RuntimeException e) {
            amqp.abort();
        }
    }
}
