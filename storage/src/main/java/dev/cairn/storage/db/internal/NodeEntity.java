package dev.cairn.storage.db.internal;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A row of {@code node}: the mapping Hibernate validates against the migrations. */
@Entity
@Table(name = "node")
public class NodeEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, unique = true)
    public UUID uuid;

    @Column(name = "node_type", nullable = false)
    public String nodeType;

    @Column(name = "process_type")
    public String processType;

    @Column(nullable = false)
    public String label;

    @Column(nullable = false)
    public String description;

    @Column(nullable = false)
    public OffsetDateTime ctime;

    @Column(nullable = false)
    public OffsetDateTime mtime;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "user_id")
    public UserEntity user;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "computer_id")
    public ComputerEntity computer;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public Map<String, Object> attributes;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public Map<String, Object> extras;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "repository_metadata", nullable = false)
    public Map<String, Object> repositoryMetadata;

    public String hash;
}
