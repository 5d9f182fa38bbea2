-- A dynamic code's link preview (docs/sharing.md#link-previews): {title, description, image_url},
-- what the preview bots of chat and social apps are shown for its short link; null: none.
ALTER TABLE "qr_codes" ADD COLUMN "preview" JSONB;
