-- The audit entry is written in every write's transaction, so each index of audit_log is paid by
-- every create (issue 26: writes must not slow down measurably). The sequence number becomes the
-- key (appended at the right edge of its index, where a random UUID lands anywhere), the entry's
-- UUID stays its public id without an index of its own (no route looks an entry up by it), and the
-- retention sweep finds old entries by sequence number instead of an index on created_at
-- (AuditLogRepository.firstSeqFrom).
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY ("seq");
DROP INDEX "audit_log_created_at_idx";
