-- Share links of a tag (docs/sharing.md#stats-pages): the stats of every code carrying the tag.
-- A link names exactly one subject: a code, a folder or a tag. Deleted with its tag (a delete, or a
-- merge into another tag: the codes' labels changed, so the page would show other codes).
ALTER TABLE "share_links" ADD COLUMN "tag_id" UUID;
ALTER TABLE "share_links" DROP CONSTRAINT "share_links_one_subject";
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_one_subject" CHECK (num_nonnulls("qr_code_id", "folder_id", "tag_id") = 1);
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "share_links_account_id_tag_id_idx" ON "share_links"("account_id", "tag_id");
