-- AlterTable
ALTER TABLE "scan_events" ADD COLUMN "event_id" UUID NOT NULL;

-- CreateTable
CREATE TABLE "service_settings" (
    "name" VARCHAR(64) NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_settings_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "scan_events_event_id_key" ON "scan_events"("event_id");
