package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One connection to the broker, opened and closed at once: tells a broker that does not answer (which may come
 * back) from one that refuses this user or virtual host (which waiting will not change).
 */
public final class BrokerProbe {

    /** AMQP's reply codes that name a setting to change: access refused, and a virtual host that does not exist. */
    private static final Set<Integer> REFUSALS = Set.of(403, 530);

    private BrokerProbe() {}

    /**
     * Returns when the broker at {@code amqpUri} accepted a connection: one of its {@code addresses} (a
     * cluster's nodes, {@code host[:port]}) when there are some.
     *
     * @throws InvalidInputException when the URI is not an AMQP URI, or the broker refused its user name,
     *     password or virtual host
     * @throws IOException when the broker did not answer (refused, unknown host, closed)
     * @throws TimeoutException when it did not answer within {@code timeout}
     */
    public static void connectOnce(String amqpUri, List<String> addresses, Duration timeout)
            throws IOException, TimeoutException {
        ConnectionFactory factory = BrokerConnection.factory(amqpUri);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(Math.toIntExact(timeout.toMillis()));
        String where = BrokerConnection.redact(amqpUri);
        try {
            (addresses.isEmpty()
                            ? factory.newConnection("cairn-start-up-check")
                            : factory.newConnection(
                                    addresses.stream()
                                            .map(Address::parseAddress)
                                            .toList(),
                                    "cairn-start-up-check"))
                    .close();
        } catch (AuthenticationFailureException e) {
            throw new InvalidInputException(
                    "the broker at " + where + " refused this server's user name or password: " + e.getMessage(), e);
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException s
                    && s.getReason() instanceof AMQP.Connection.Close close
                    && REFUSALS.contains(close.getReplyCode())) {
                throw new InvalidInputException(
                        "the broker at " + where + " refused this server: " + close.getReplyText(), e);
            }
            throw e;
        }
    }
}
