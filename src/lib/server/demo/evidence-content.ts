// The demo evidence study's content, all fictional: three clinical questions in the BioGen 2024
// topics format, seven short abstracts (PMIDs of nine digits, beyond any real PubMed id, so none
// can be mistaken for a real paper), and two runs in the BioGen 2024 run format whose answers cite
// them inline. One answer cites a PMID that is never imported: it shows "document not available".

export const DEMO_TOPICS = [
	{
		id: 'demo-1',
		topic: 'hip replacement pain',
		question:
			'In adults after total hip replacement, how effective is pain medication in recovery?',
		narrative:
			'An orthopaedic nurse wants to know which pain medication regimens help patients mobilise in the first week after surgery.'
	},
	{
		id: 'demo-2',
		topic: 'kidney stone expulsion',
		question: 'Which treatments help a ureteral kidney stone pass?',
		narrative: 'A general practitioner asks about medical expulsive therapy for stones under 10 mm.'
	},
	{
		id: 'demo-3',
		topic: 'statins in older adults',
		question: 'Should adults over 75 start a statin for primary prevention?',
		narrative:
			'A geriatrician weighs benefits and harms for a patient without cardiovascular disease.'
	}
] as const;

export const DEMO_ABSTRACTS = [
	{
		pmid: '900000001',
		title: 'Multimodal analgesia after total hip arthroplasty: a randomised trial',
		abstract:
			'Background: Pain limits early mobilisation after total hip arthroplasty. Methods: We randomised 240 adults to multimodal analgesia or opioids alone. Results: Pain scores at rest and on walking were lower with multimodal analgesia on days 1 to 3 (p < 0.01). Patients in the multimodal group walked 20 m two days earlier on average. Conclusion: Multimodal analgesia improves pain control and early mobilisation after hip replacement.'
	},
	{
		pmid: '900000002',
		title: 'Opioid use and recovery after joint replacement',
		abstract:
			'Opioids were long the mainstay of perioperative pain control in joint replacement. In this cohort of 1,100 patients, higher opioid doses were associated with longer stays and more nausea. Pain scores decreased steadily over the first postoperative week as rehabilitation progressed. Reducing opioid exposure did not worsen pain.'
	},
	{
		pmid: '900000003',
		title: 'Local infiltration analgesia in hip replacement',
		abstract:
			'Local infiltration analgesia is widely used in hip replacement. In 180 patients it did not reduce pain beyond 24 hours compared with placebo. Length of stay was similar in both groups.'
	},
	{
		pmid: '900000004',
		title: 'Tamsulosin for distal ureteral stones: a meta-analysis',
		abstract:
			'Medical expulsive therapy uses alpha-blockers to relax ureteral smooth muscle. Across 30 trials, tamsulosin increased stone passage for distal stones of 5 to 10 mm (risk ratio 1.45). For stones under 5 mm the benefit was small. Adverse events were mild, mostly dizziness.'
	},
	{
		pmid: '900000005',
		title: 'Hydration and analgesia for renal colic',
		abstract:
			'Forced intravenous hydration did not speed stone passage in a trial of 300 patients. Non-steroidal anti-inflammatory drugs gave better pain relief than opioids with fewer side effects.'
	},
	{
		pmid: '900000006',
		title: 'Statins for primary prevention in people aged over 75 years',
		abstract:
			'Evidence on statins for primary prevention after age 75 is limited. In a pooled analysis, statins reduced major vascular events in older adults with vascular risk factors. Muscle symptoms and drug interactions were more frequent with multiple medications. Decisions should weigh life expectancy and patient preferences.'
	},
	{
		pmid: '900000007',
		title: 'Deprescribing statins near the end of life',
		abstract:
			'Stopping statins in patients with limited life expectancy was safe in a trial of 380 adults. Quality of life improved slightly after stopping. Cardiovascular events did not increase within one year.'
	}
] as const;

/** Cited in one answer, never imported: the assessor sees "document not available". */
export const DEMO_MISSING_PMID = '900000099';

/** Two runs in the BioGen 2024 run format: citations inline as [PMID, PMID]. */
export const DEMO_RUNS = [
	{
		team_id: 'demo-team',
		run_name: 'demo-run-A',
		results: [
			{
				topic_id: 'demo-1',
				answer:
					'Multimodal analgesia controls pain after total hip replacement better than opioids alone [900000001]. It also helps patients walk earlier, e.g. about two days sooner on average [900000001]. Pain scores fall steadily during the first week as rehabilitation progresses [900000002, 900000003]. Higher opioid doses are linked to longer hospital stays [900000002].',
				references: ['900000001', '900000002', '900000003']
			},
			{
				topic_id: 'demo-2',
				answer:
					'Tamsulosin increases the passage of distal ureteral stones of 5 to 10 mm [900000004]. Intravenous hydration speeds stone passage [900000005]. NSAIDs relieve renal colic with fewer side effects than opioids [900000005]. Always see a doctor.',
				references: ['900000004', '900000005']
			},
			{
				topic_id: 'demo-3',
				answer:
					'Statins reduce major vascular events in adults over 75 with vascular risk factors [900000006]. Muscle symptoms are more frequent in people taking many medicines [900000006]. Stopping statins near the end of life appears safe [900000007].',
				references: ['900000006', '900000007']
			}
		]
	},
	{
		team_id: 'demo-team',
		run_name: 'demo-run-B',
		results: [
			{
				topic_id: 'demo-1',
				answer:
					'Pain medication is effective after hip replacement [900000001, 900000099]. Local infiltration analgesia reduces pain for several days [900000003]. As a language model, I cannot examine you.',
				references: ['900000001', '900000003', '900000099']
			},
			{
				topic_id: 'demo-2',
				answer:
					'Medical expulsive therapy with alpha-blockers such as tamsulosin helps stones pass [900000004]. The benefit is small for stones under 5 mm [900000004].',
				references: ['900000004']
			},
			{
				topic_id: 'demo-3',
				answer:
					'All adults over 75 should start a statin. The evidence is limited and decisions should weigh life expectancy [900000006].',
				references: ['900000006']
			}
		]
	}
] as const;
