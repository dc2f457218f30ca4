-- The evidence design's database side: an assessor's work on one answer saved step by step
-- (`evidence_save`), and the answer finished with the claim of the next one (`evidence_submit`,
-- study_claim in study.sql), each one statement. The shape of a step is checked in TypeScript
-- (src/lib/server/domain/studies/designs/evidence/assessment.ts); these functions check what needs
-- the frozen answer (sentence numbers, words, citations, document sentences) and what must hold
-- under concurrency: the assessor's own assignment, the lease, a finished answer staying finished.
-- Applied after the schema migrations whenever this file changes (src/lib/server/db/functions.ts);
-- change a function here, never in a numbered migration.

-- Locks the rater's assignment of an evidence study and makes sure they hold its lease: a live
-- lease is extended by the study's lease time (work in progress keeps its answer); a lapsed one
-- is taken again when the answer still wants an assessor (the sweep gave its slot back), so a
-- reload after a pause loses nothing. Returns the assignment with `leased` (false: the slot went
-- to somebody else; the work is still saved but cannot be finished), or a refusal reason.
CREATE OR REPLACE FUNCTION evidence_hold(p_rater text, p_public_id text, p_now timestamptz)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_a record;
	v_taken integer;
BEGIN
	SELECT a.id, a.state, a.lease_expires_at, a.study_question_id, q.study_id, s.state AS study_state,
		s.lease_minutes, s.design
	INTO v_a
	FROM assignment a
	JOIN study_question q ON q.id = a.study_question_id
	JOIN study s ON s.id = q.study_id
	WHERE a.public_id = p_public_id AND a.physician_id = p_rater
	FOR UPDATE OF a;
	IF NOT FOUND OR v_a.design <> 'evidence' THEN
		RETURN jsonb_build_object('refused', 'not_yours');
	END IF;
	IF v_a.state = 'submitted' THEN
		RETURN jsonb_build_object('refused', 'submitted');
	END IF;
	IF v_a.study_state = 'closed' THEN
		RETURN jsonb_build_object('refused', 'closed');
	END IF;
	IF v_a.state = 'leased' AND v_a.lease_expires_at > p_now THEN
		UPDATE assignment SET lease_expires_at = p_now + make_interval(mins => v_a.lease_minutes)
		WHERE id = v_a.id;
		RETURN jsonb_build_object('id', v_a.id, 'studyId', v_a.study_id, 'question', v_a.study_question_id,
			'leased', true);
	END IF;
	IF v_a.state = 'leased' THEN
		-- Lapsed but not swept yet: nobody else can hold its slot.
		UPDATE assignment SET lease_expires_at = p_now + make_interval(mins => v_a.lease_minutes)
		WHERE id = v_a.id;
		RETURN jsonb_build_object('id', v_a.id, 'studyId', v_a.study_id, 'question', v_a.study_question_id,
			'leased', true);
	END IF;
	IF v_a.state = 'expired' AND v_a.study_state = 'open' THEN
		UPDATE study_question SET open_slots = open_slots - 1
		WHERE id = v_a.study_question_id AND open_slots > 0
		RETURNING id INTO v_taken;
		IF v_taken IS NOT NULL THEN
			UPDATE assignment SET state = 'leased',
				lease_expires_at = p_now + make_interval(mins => v_a.lease_minutes)
			WHERE id = v_a.id;
			RETURN jsonb_build_object('id', v_a.id, 'studyId', v_a.study_id,
				'question', v_a.study_question_id, 'leased', true, 'relet', true);
		END IF;
	END IF;
	RETURN jsonb_build_object('id', v_a.id, 'studyId', v_a.study_id, 'question', v_a.study_question_id,
		'leased', false);
END
$$;

-- Saves one step of an assessment: `p_step` is {answers: true | false} (does the answer, as a
-- whole, answer the question) or {position, interpretable, assertions: [{start, end, relevance,
-- relations: [{pmid, relation, evidence: [n…]}]}]}, the whole state of one sentence, which
-- replaces what was saved of it. Checks the sentence exists, spans lie within its words and do not
-- overlap, each relation names a PMID the sentence cites and evidence sentences its document has.
-- `p_time_ms` (time since the last save) is added to the time on task.
-- Returns {status: 'saved', leased, relet?} or {status: 'refused', reason, detail?}.
-- Called by designs/evidence/assessment.ts `saveEvidenceStep`.
CREATE OR REPLACE FUNCTION evidence_save(
	p_rater text, p_public_id text, p_step jsonb, p_time_ms integer, p_now timestamptz
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_hold jsonb;
	v_a integer;
	v_candidate integer;
	v_sentence record;
	v_position integer;
	v_assertion jsonb;
	v_relation jsonb;
	v_id integer;
	v_last_end integer := 0;
	v_doc_sentences integer;
	v_n integer;
BEGIN
	v_hold := evidence_hold(p_rater, p_public_id, p_now);
	IF v_hold ? 'refused' THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', v_hold ->> 'refused');
	END IF;
	v_a := (v_hold ->> 'id')::integer;
	INSERT INTO evidence_assessment (assignment_id, rater_id, updated_at)
	VALUES (v_a, p_rater, p_now)
	ON CONFLICT (assignment_id) DO UPDATE SET updated_at = p_now,
		time_on_task_ms = least(evidence_assessment.time_on_task_ms + coalesce(p_time_ms, 0), 2000000000);

	IF p_step ? 'answers' THEN
		UPDATE evidence_assessment SET answers_question = (p_step ->> 'answers')::boolean
		WHERE assignment_id = v_a;
	ELSE
		v_position := (p_step ->> 'position')::integer;
		SELECT c.id INTO v_candidate FROM candidate c
		WHERE c.study_question_id = (v_hold ->> 'question')::integer LIMIT 1;
		SELECT s.position, s.citations, cardinality(s.words) AS words INTO v_sentence
		FROM evidence_sentence s WHERE s.candidate_id = v_candidate AND s.position = v_position;
		IF NOT FOUND THEN
			RETURN jsonb_build_object('status', 'refused', 'reason', 'sentence');
		END IF;
		-- Replace the sentence's saved state (relations go with their assertions).
		DELETE FROM evidence_assertion WHERE assignment_id = v_a AND position = v_position;
		INSERT INTO evidence_sentence_label (assignment_id, position, interpretable)
		VALUES (v_a, v_position, (p_step ->> 'interpretable')::boolean)
		ON CONFLICT (assignment_id, position) DO UPDATE SET interpretable = excluded.interpretable;
		FOR v_assertion IN
			SELECT e.v FROM jsonb_array_elements(coalesce(p_step -> 'assertions', '[]'::jsonb)) AS e(v)
			ORDER BY (e.v ->> 'start')::integer
		LOOP
			IF (v_assertion ->> 'start')::integer < v_last_end
				OR (v_assertion ->> 'end')::integer > v_sentence.words
				OR (v_assertion ->> 'end')::integer <= (v_assertion ->> 'start')::integer THEN
				RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'evidence:span';
			END IF;
			v_last_end := (v_assertion ->> 'end')::integer;
			INSERT INTO evidence_assertion (assignment_id, position, start_word, end_word, relevance)
			VALUES (v_a, v_position, (v_assertion ->> 'start')::smallint, (v_assertion ->> 'end')::smallint,
				(v_assertion ->> 'relevance')::evidence_relevance)
			RETURNING id INTO v_id;
			FOR v_relation IN
				SELECT r.v FROM jsonb_array_elements(coalesce(v_assertion -> 'relations', '[]'::jsonb)) AS r(v)
			LOOP
				IF NOT (v_relation ->> 'pmid') = ANY (v_sentence.citations) THEN
					RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'evidence:citation';
				END IF;
				SELECT jsonb_array_length(d.sentences) INTO v_doc_sentences
				FROM document d WHERE d.pmid = v_relation ->> 'pmid';
				IF v_doc_sentences IS NULL THEN
					RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'evidence:document';
				END IF;
				SELECT count(*) INTO v_n
				FROM jsonb_array_elements_text(coalesce(v_relation -> 'evidence', '[]'::jsonb)) AS x(n)
				WHERE x.n::integer < 1 OR x.n::integer > v_doc_sentences;
				IF v_n > 0 THEN
					RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'evidence:evidence';
				END IF;
				INSERT INTO evidence_relation (assertion_id, pmid, relation, evidence)
				VALUES (v_id, v_relation ->> 'pmid', (v_relation ->> 'relation')::document_relation,
					ARRAY(SELECT DISTINCT x.n::integer
						FROM jsonb_array_elements_text(coalesce(v_relation -> 'evidence', '[]'::jsonb)) AS x(n)
						ORDER BY 1));
			END LOOP;
		END LOOP;
	END IF;
	RETURN jsonb_build_object('status', 'saved', 'leased', (v_hold ->> 'leased')::boolean,
		'relet', coalesce((v_hold ->> 'relet')::boolean, false));
EXCEPTION
	WHEN raise_exception THEN
		IF SQLERRM LIKE 'evidence:%' THEN
			RETURN jsonb_build_object('status', 'refused', 'reason', substr(SQLERRM, 10));
		END IF;
		RAISE;
END
$$;

-- What an assessment still lacks before it can be finished, as {position, what} (position null:
-- the answer as a whole), the first in reading order; null when complete. In a per-sentence
-- study (`p_mode` 'sentence') every interpretable sentence needs its one whole-sentence assertion.
-- Documents that were never imported need no relation.
CREATE OR REPLACE FUNCTION evidence_missing(p_assignment integer, p_mode text)
RETURNS jsonb LANGUAGE sql STABLE AS $$
	WITH a AS (
		SELECT e.answers_question, c.id AS candidate
		FROM assignment x
		JOIN candidate c ON c.study_question_id = x.study_question_id
		LEFT JOIN evidence_assessment e ON e.assignment_id = x.id
		WHERE x.id = p_assignment
		LIMIT 1
	), sentences AS (
		SELECT s.position, s.citations, l.interpretable
		FROM a JOIN evidence_sentence s ON s.candidate_id = a.candidate
		LEFT JOIN evidence_sentence_label l ON l.assignment_id = p_assignment AND l.position = s.position
	), gaps AS (
		SELECT NULL::integer AS position, 'answers' AS what, 0 AS k FROM a WHERE a.answers_question IS NULL
		UNION ALL
		SELECT s.position, 'interpretable', 1 FROM a, sentences s
		WHERE a.answers_question AND s.interpretable IS NULL
		UNION ALL
		SELECT s.position, 'assertion', 2 FROM a, sentences s
		WHERE a.answers_question AND s.interpretable AND p_mode = 'sentence'
			AND NOT EXISTS (SELECT 1 FROM evidence_assertion t
				WHERE t.assignment_id = p_assignment AND t.position = s.position)
		UNION ALL
		SELECT s.position, 'relation', 3 FROM a, sentences s
		JOIN evidence_assertion t ON t.assignment_id = p_assignment AND t.position = s.position
		CROSS JOIN LATERAL unnest(s.citations) AS cited(pmid)
		WHERE a.answers_question AND s.interpretable
			AND EXISTS (SELECT 1 FROM document d WHERE d.pmid = cited.pmid)
			AND NOT EXISTS (SELECT 1 FROM evidence_relation r
				WHERE r.assertion_id = t.id AND r.pmid = cited.pmid)
		UNION ALL
		SELECT s.position, 'evidence', 4 FROM a, sentences s
		JOIN evidence_assertion t ON t.assignment_id = p_assignment AND t.position = s.position
		JOIN evidence_relation r ON r.assertion_id = t.id
		WHERE a.answers_question AND s.interpretable
			AND r.relation IN ('supports', 'partially_supports', 'contradicts')
			AND cardinality(r.evidence) = 0
		UNION ALL
		SELECT s.position, 'relevance', 5 FROM a, sentences s
		JOIN evidence_assertion t ON t.assignment_id = p_assignment AND t.position = s.position
		WHERE a.answers_question AND s.interpretable AND t.relevance IS NULL
	)
	SELECT jsonb_build_object('position', position, 'what', what)
	FROM gaps ORDER BY position NULLS FIRST, k LIMIT 1
$$;

-- Finishes an assessment: refuses while something is missing (evidence_missing), marks the
-- assignment submitted with an `evidence.submit` audit event, and with `p_claim` leases the
-- rater's next answer of the study. Finishing an answer already finished changes nothing.
-- Returns {status: 'stored' | 'duplicate', studyId, next?} or {status: 'refused', reason,
-- missing?}. Called by designs/evidence/assessment.ts `submitEvidence`.
CREATE OR REPLACE FUNCTION evidence_submit(
	p_rater text, p_public_id text, p_time_ms integer, p_now timestamptz, p_claim boolean,
	p_order_seed text, p_next_public_id text, p_next_seed text, p_candidate_ids text[],
	p_perms integer[]
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	v_hold jsonb;
	v_a integer;
	v_study integer;
	v_mode text;
	v_missing jsonb;
	v_result jsonb;
BEGIN
	v_hold := evidence_hold(p_rater, p_public_id, p_now);
	IF v_hold ->> 'refused' = 'submitted' THEN
		SELECT q.study_id INTO v_study FROM assignment a
		JOIN study_question q ON q.id = a.study_question_id WHERE a.public_id = p_public_id;
		v_result := jsonb_build_object('status', 'duplicate', 'studyId', v_study);
	ELSIF v_hold ? 'refused' THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', v_hold ->> 'refused');
	ELSIF NOT (v_hold ->> 'leased')::boolean THEN
		RETURN jsonb_build_object('status', 'refused', 'reason', 'expired');
	ELSE
		v_a := (v_hold ->> 'id')::integer;
		v_study := (v_hold ->> 'studyId')::integer;
		SELECT mode::text INTO v_mode FROM evidence_study WHERE study_id = v_study;
		v_missing := evidence_missing(v_a, v_mode);
		IF v_missing IS NOT NULL THEN
			RETURN jsonb_build_object('status', 'refused', 'reason', 'incomplete', 'missing', v_missing);
		END IF;
		UPDATE evidence_assessment SET submitted_at = p_now, updated_at = p_now,
			time_on_task_ms = least(time_on_task_ms + coalesce(p_time_ms, 0), 2000000000)
		WHERE assignment_id = v_a;
		INSERT INTO audit_event (actor_id, action, object_type, object_id, after)
		VALUES (p_rater, 'evidence.submit', 'assignment', v_a::text, jsonb_build_object(
			'studyId', v_study,
			'answersQuestion', (SELECT answers_question FROM evidence_assessment WHERE assignment_id = v_a),
			'assertions', (SELECT count(*) FROM evidence_assertion WHERE assignment_id = v_a)));
		UPDATE assignment SET state = 'submitted', submitted_at = p_now, lease_expires_at = NULL
		WHERE id = v_a;
		UPDATE study_question SET completed = completed + 1 WHERE id = (v_hold ->> 'question')::integer;
		v_result := jsonb_build_object('status', 'stored', 'studyId', v_study);
	END IF;
	IF p_claim THEN
		v_result := v_result || jsonb_build_object('next', study_claim(v_study, p_rater, p_now,
			false, true, p_order_seed, p_next_public_id, p_next_seed, p_candidate_ids, p_perms));
	END IF;
	RETURN v_result;
END
$$;
