package dev.cairn.storage.db.internal;

import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A row of {@code computer}. */
@Entity
@Table(name = "computer")
public class ComputerEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public UUID uuid;

    @Column(nullable = false, unique = true)
    public String label;

    @Column(nullable = false)
    public String hostname;

    @Column(nullable = false)
    public String description;

    @Column(name = "transport_type", nullable = false)
    public String transportType;

    @Column(name = "scheduler_type", nullable = false)
    public String schedulerType;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public Map<String, Object> metadata;
}
